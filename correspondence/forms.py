from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User

HOURS = [("", _("None"))] + [(h, "%02d:00" % h) for h in range(24)]


class MailPreferencesForm(forms.ModelForm):
    quiet_hours_start = forms.TypedChoiceField(
        label=_("Night starts at"), choices=HOURS, coerce=int, empty_value=None, required=False
    )
    quiet_hours_end = forms.TypedChoiceField(
        label=_("Night ends at"), choices=HOURS, coerce=int, empty_value=None, required=False
    )
    digest_hour = forms.TypedChoiceField(label=_("Digest hour"), choices=HOURS[1:], coerce=int)

    class Meta:
        model = User
        fields = [
            "email_on_your_turn",
            "turn_mail",
            "digest_hour",
            "email_reminders",
            "email_on_game_over",
            "quiet_hours_start",
            "quiet_hours_end",
        ]

    def clean(self):
        cleaned = super().clean() or {}
        if (cleaned.get("quiet_hours_start") is None) != (cleaned.get("quiet_hours_end") is None):
            raise forms.ValidationError(_("Give both ends of your night, or neither."))
        return cleaned


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=60)
