"""Staff pages show history, seats, members and audit rows but never let them be
edited, added or deleted there: those rows change only through services."""
from django.contrib.admin.sites import site
from django.test import RequestFactory

from maatasite.admin_inlines import ReadOnlyTabularInline


def test_every_inline_of_the_admin_is_read_only():
    request = RequestFactory().get("/")
    inlines = [(model, inline) for model, model_admin in site._registry.items()
               for inline in model_admin.inlines]
    assert len(inlines) >= 6
    for model, inline_class in inlines:
        inline = inline_class(model, site)
        assert isinstance(inline, ReadOnlyTabularInline), inline_class
        assert tuple(inline.get_readonly_fields(request)) == tuple(inline.fields), inline_class
        assert inline.has_add_permission(request, None) is False
        assert inline.can_delete is False and inline.extra == 0
