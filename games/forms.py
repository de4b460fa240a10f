from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.selectors import user_get_public

from .archive import VARIANT_OPTIONS, ArchiveFilters
from .labels import SIDES
from .models import BOT_LEVELS, DAYS_PER_MOVE_CHOICES, GameKind, PlayerResult

# The seat choices' labels, in the engine's seat order (games.labels.SIDES).
_SEAT_LABELS = {
    GameKind.ONITAMA: (_("Red (Onitama)"), _("Blue (Onitama)")),
    GameKind.MAATATAHAY: (_("Balan (Maatatahay)"), _("Wazu (Maatatahay)")),
}
SEAT_CHOICES = [("random", _("Random"))] + [
    (side, label)
    for kind in (GameKind.ONITAMA, GameKind.MAATATAHAY)
    for side, label in zip(SIDES[kind], _SEAT_LABELS[kind], strict=True)
]
CARD_CHOICES = [("base", _("Base game")), ("senseis_path", _("Sensei's Path")), ("mixed", _("Both mixed"))]
VARIANT_CHOICES = [("first", _("First Game")), ("standard", _("Standard Game"))]
OPENING_CHOICES = [
    ("", _("Random opening")),
    ("1", _("1: Five Peaks")),
    ("2", _("2: Crossroads")),
    ("3", _("3: Scattered")),
    ("4", _("4: Corners")),
]


class GameOptionsForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"), choices=GameKind.choices)
    cards = forms.ChoiceField(label=_("Onitama cards"), choices=CARD_CHOICES, initial="base", required=False)
    variant = forms.ChoiceField(label=_("Maatatahay variant"), choices=VARIANT_CHOICES, initial="first", required=False)
    opening = forms.ChoiceField(label=_("Maatatahay opening (First Game)"), choices=OPENING_CHOICES, required=False)
    seat_choice = forms.ChoiceField(label=_("I play"), choices=SEAT_CHOICES, initial="random")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("kind")
        seat = data.get("seat_choice")
        if kind and seat and seat != "random" and seat not in SIDES[kind]:
            self.add_error("seat_choice", _("Choose a side of this game or random."))
        return data

    def game_options(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data["kind"] == GameKind.ONITAMA:
            return {"cards": data.get("cards") or "base"}
        options: dict[str, Any] = {"variant": data.get("variant") or "first"}
        if options["variant"] == "first" and data.get("opening"):
            options["opening"] = int(data["opening"])
        return options


class ChallengeForm(GameOptionsForm):
    opponent = forms.CharField(
        label=_("Opponent"), required=False, max_length=150, help_text=_("A username, or empty for an open challenge.")
    )
    days_per_move = forms.TypedChoiceField(
        label=_("Days per move"), coerce=int, choices=DAYS_PER_MOVE_CHOICES, initial=3
    )
    rated = forms.TypedChoiceField(
        label=_("Rated"), coerce=lambda v: v == "1", choices=[("1", _("Rated")), ("0", _("Casual"))], initial="1"
    )

    field_order = ["kind", "opponent", "days_per_move", "rated", "seat_choice", "cards", "variant", "opening"]

    def clean_opponent(self) -> Any:
        name = (self.cleaned_data.get("opponent") or "").strip()
        if not name:
            return None
        user = user_get_public(username=name)
        if user is None:
            raise forms.ValidationError(_("There is no player called %(name)s."), params={"name": name})
        return user


class SoloForm(GameOptionsForm):
    level = forms.TypedChoiceField(label=_("Bot level"), coerce=int, choices=[(n, n) for n in BOT_LEVELS], initial=1)

    field_order = ["kind", "level", "seat_choice", "cards", "variant", "opening"]


class MoveForm(forms.Form):
    move = forms.CharField(max_length=200, required=False)
    move_typed = forms.CharField(max_length=200, required=False)
    expected_ply = forms.IntegerField(min_value=0)

    def move_text(self) -> str:
        return (self.cleaned_data.get("move_typed") or self.cleaned_data.get("move") or "").strip()


class ArchiveFilterForm(forms.Form):
    """The archive's filters (games.archive), from a query string: the history page's GET form
    and the API's archive endpoint both check them here. Every field may be left empty."""

    kind = forms.ChoiceField(label=_("Game"), choices=[("", _("Any game"))] + GameKind.choices, required=False)
    variant = forms.ChoiceField(
        label=_("Variant"),
        choices=[
            ("", _("Any variant")),
            (_("Onitama cards"), CARD_CHOICES),
            (_("Maatatahay variant"), VARIANT_CHOICES),
        ],
        required=False,
    )
    result = forms.ChoiceField(
        label=_("Result"), choices=[("", _("Any result"))] + PlayerResult.choices, required=False
    )
    opponent = forms.CharField(
        label=_("Opponent"),
        max_length=150,
        required=False,
        help_text=_("The start of a username, in any case."),
        widget=forms.TextInput(attrs={"aria-describedby": "id_opponent_help", "autocomplete": "off"}),
    )
    finished_from = forms.DateField(
        label=_("Finished from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    finished_to = forms.DateField(
        label=_("Finished to"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    rated = forms.ChoiceField(
        label=_("Rated"),
        choices=[("", _("Rated or casual")), ("yes", _("Rated")), ("no", _("Casual"))],
        required=False,
    )
    tournament = forms.IntegerField(label=_("Tournament"), min_value=1, max_value=2**63 - 1, required=False)

    def __init__(self, *args: Any, tournaments: list[tuple[int, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if tournaments is not None:  # the page offers the player's tournaments by name; the API takes any id
            choices: list[tuple[Any, Any]] = [("", _("Any tournament")), *tournaments]
            self.fields["tournament"].widget = forms.Select(choices=choices) if tournaments else forms.HiddenInput()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("finished_from"), data.get("finished_to")
        if start and end and start > end:
            self.add_error("finished_to", _("The end date is before the start date."))
            data.pop("finished_from", None)  # the range as a whole is left out
        kind, variant = data.get("kind"), data.get("variant")
        if kind and variant and VARIANT_OPTIONS[variant][0] != kind:
            self.add_error("variant", _("This variant is not one of the chosen game's."))
        return data

    def archive_filters(self) -> ArchiveFilters:
        """The filters that are valid (a field with an error is left out: the page notes it)."""
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        rated = data.get("rated")
        return ArchiveFilters(
            kind=data.get("kind") or "",
            variant=data.get("variant") or "",
            result=data.get("result") or "",
            opponent=(data.get("opponent") or "").strip(),
            finished_from=data.get("finished_from"),
            finished_to=data.get("finished_to"),
            rated={"yes": True, "no": False}.get(rated or ""),
            tournament=data.get("tournament"),
        )
