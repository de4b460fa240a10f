from django import forms
from django.utils.translation import gettext_lazy as _

from .models import ReportKind
from .services import REASON_MAX_LENGTH


class ReportForm(forms.Form):
    """What a player says when reporting a game or a player."""

    kind = forms.ChoiceField(label=_("What happened"), choices=ReportKind.choices)
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 3}))
