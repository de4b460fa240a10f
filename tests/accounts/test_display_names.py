"""Display names that disguise text or pose as a bot or as staff are refused (accounts.names),
on the profile page and through the API alike; names saved before the rule are kept and
listed for staff."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from accounts.names import RESERVED_WORDS, bot_label, display_name_breaks_rules, validate_display_name
from tests.api_clients import token_client
from tests.factories import make_user

INVISIBLE = [
    "\u202eevil",
    "left\u202aright",
    "a\u202bb",
    "a\u202cb",
    "a\u202db",  # embeddings and overrides
    "x\u2066y\u2069",
    "x\u2067y",
    "x\u2068y",  # isolates
    "mark\u200e",
    "mark\u200f",
    "\u061cname",  # direction marks
    "zero\u200bwidth",
    "join\u200dme",
    "soft\u00adhyphen",
    "\ufeffbom",  # other format characters
    "tab\tname",
    "new\nline",  # controls
]
POSING = [
    # the bot's label, as each language writes it, and tricks on it
    "Bot (level 5)",
    "bot (LEVEL 1)",
    "Bot(level3)",
    "B o t  (level 5)",
    "Ｂｏｔ (level 5)",
    "Botlevel5",
    "Bot (tingkat 5)",
    "روبوت (المستوى 5)",
    "روبوت (المستوى ٥)",
    "روبوت(المستوى5)",
    # staff words, spelled plainly or with tricks NFKC, casefolding and the marks undo
    "Admin",
    "admin2",
    "A.D.M.I.N",
    "a d m i n",
    "ａｄｍｉｎ",
    "𝐚𝐝𝐦𝐢𝐧",
    "Âdmín",
    "The Moderator",
    "Maatasite",
    "Maatasite Team",
    "xXmaatasiteXx",
    "Official Support",
    "staff",
    "SYSTEM",
    "Staf Resmi",
    "Petugas",
    "Tim Dukungan",
    "المشرف",
    "مشرف",
    "مـشـرف",
    "الإدارة",
    "ادارة",
    "فريق الدعم",
]
FINE = [
    "Alice",
    "Alice A.",
    "Badminton Fan",
    "Robotnik",
    "Supporters",
    "Level 5 Boss",
    "Émilie",
    "Budi Santoso",
    "محمد",
    "عبد الله",
    "Nguyễn Văn A",
    "李小龍",
    "👍 Thumbs",
    "",
]


@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible_format_and_control_characters_are_refused(name):
    with pytest.raises(ValidationError) as refused:
        validate_display_name(name)
    assert refused.value.code == "display_name_invisible"


@pytest.mark.parametrize("name", POSING)
def test_names_posing_as_a_bot_or_as_staff_are_refused(name):
    with pytest.raises(ValidationError) as refused:
        validate_display_name(name)
    assert refused.value.code == "display_name_reserved"


@pytest.mark.parametrize("name", FINE)
def test_ordinary_names_in_any_script_are_fine(name):
    validate_display_name(name)


@pytest.mark.parametrize("language", ["en", "id", "ar"])
def test_every_reserved_word_and_the_bot_label_of_every_language_is_refused(language):
    with translation.override(language):
        labels = [bot_label(level) for level in (1, 5)]
    assert all(display_name_breaks_rules(label) for label in labels), labels
    for word in RESERVED_WORDS[language]:
        assert display_name_breaks_rules(word) and display_name_breaks_rules(word.upper()), word


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Bot (level 5)", "Alice\u202eecilA", "Moderator"])
def test_the_profile_form_refuses_them_with_a_field_error(client, name):
    player = make_user("alice")
    client.force_login(player)
    response = client.post(reverse("accounts:profile"), {"display_name": name, "language": "", "time_zone": ""})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["display_name"]
    assert "display name cannot" in errors["display_name"][0]
    player.refresh_from_db()
    assert player.display_name == ""


@pytest.mark.django_db
def test_the_profile_form_says_so_in_the_players_language(client):
    player = make_user("alice")
    player.language = "ar"
    player.save()
    client.force_login(player)
    response = client.post(
        reverse("accounts:profile"), {"display_name": "روبوت (المستوى 5)", "language": "ar", "time_zone": ""}
    )
    assert response.status_code == 200
    message = response.context["form"].errors["display_name"][0]
    assert "display name" not in message and message.strip()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name, code",
    [
        ("Bot (level 5)", "display_name_reserved"),
        ("\u202eevil", "display_name_invisible"),
        ("ａｄｍｉｎ", "display_name_reserved"),
    ],
)
def test_the_api_refuses_them_with_a_clear_400(name, code):
    player = make_user("alice")
    answer = token_client(player).patch("/api/v1/me/", {"display_name": name}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == code and "display name cannot" in body["message"]
    player.refresh_from_db()
    assert player.display_name == ""


@pytest.mark.django_db
def test_a_name_saved_before_the_rule_is_kept_and_other_preferences_still_change(client):
    player = make_user("alice")
    player.display_name = "Admin"  # saved before the rule existed
    player.save()
    answer = token_client(player).patch("/api/v1/me/", {"email_on_your_turn": False}, format="json")
    assert answer.status_code == 200
    client.force_login(player)
    response = client.post(reverse("accounts:profile"), {"display_name": "Admin", "language": "", "time_zone": ""})
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.display_name, player.email_on_your_turn) == ("Admin", False)
    refused = token_client(player).patch("/api/v1/me/", {"display_name": "Admin!"}, format="json")
    assert refused.status_code == 400


@pytest.mark.django_db
def test_staff_see_the_names_that_break_the_rule_in_the_user_admin(client):
    User = get_user_model()
    legacy = {"imposter": "Bot (level 5)", "trickster": "Alice\u202eecilA", "official": "ＳＴＡＦＦ"}
    for username, name in legacy.items():
        User.objects.filter(pk=make_user(username).pk).update(display_name=name)
    User.objects.filter(pk=make_user("badminton").pk).update(display_name="Badminton Fan")
    make_user("plain")
    client.force_login(User.objects.create_superuser(username="root", email="root@example.com", password="x"))
    listed = client.get("/admin/accounts/user/", {"display_name_rules": "broken"})
    assert listed.status_code == 200
    assert sorted(user.username for user in listed.context["cl"].result_list) == sorted(legacy)
    assert "display name breaks the rules" in listed.content.decode()
    everyone = client.get("/admin/accounts/user/")
    assert everyone.context["cl"].result_count == 6
    assert dict(User.objects.filter(username__in=legacy).values_list("username", "display_name")) == legacy
