"""Staff pages show history, seats, members and audit rows but never let them be
edited, added or deleted there: those rows change only through services."""

from django.contrib.admin.sites import site
from django.test import RequestFactory

from maatasite.admin_readonly import ReadOnlyModelAdmin, ReadOnlyTabularInline


def test_every_inline_of_the_admin_is_read_only():
    request = RequestFactory().get("/")
    inlines = [(model, inline) for model, model_admin in site._registry.items() for inline in model_admin.inlines]
    assert len(inlines) >= 6
    for model, inline_class in inlines:
        inline = inline_class(model, site)
        assert isinstance(inline, ReadOnlyTabularInline), inline_class
        assert inline.fields is not None, inline_class
        assert tuple(inline.get_readonly_fields(request)) == tuple(inline.fields), inline_class
        assert inline.has_add_permission(request, None) is False
        assert inline.can_delete is False and inline.extra == 0


def test_read_only_model_admins_offer_no_add_change_or_delete():
    request = RequestFactory().get("/")
    admins = [model_admin for model_admin in site._registry.values() if isinstance(model_admin, ReadOnlyModelAdmin)]
    assert len(admins) >= 6  # sweeps, outages, adjudications, suspensions, audit log, messages
    for model_admin in admins:
        assert model_admin.has_add_permission(request) is False, model_admin
        assert model_admin.has_change_permission(request) is False, model_admin
        assert model_admin.has_delete_permission(request) is False, model_admin
