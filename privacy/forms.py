from django import forms
from django.utils.translation import gettext_lazy as _


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Type your password again to confirm."),
    )
