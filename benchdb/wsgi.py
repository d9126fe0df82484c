import os

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
application = get_wsgi_application()

from django.conf import settings  # noqa: E402 - after the app is set up

if settings.SECRET_KEY_IS_EPHEMERAL and not settings.DEBUG:
    # Each web process would sign sessions and CSRF tokens with its own key.
    raise ImproperlyConfigured(
        "set SECRET_KEY or SECRET_KEY_FILE to serve the site (make demo does)"
    )
