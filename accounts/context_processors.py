"""The failing-address banner of templates/base.html, on every page of a signed-in player."""


def mail_failing(request):
    """``mail_failing_user``: the signed-in user when mail to their address fails, else None
    (a callable, so a page without the banner never loads the user for it)."""

    def failing_user():
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.email_is_failing:
            return user
        return None

    return {"mail_failing_user": failing_user}
