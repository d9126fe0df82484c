"""The client's IP address: the one key of the login throttle (django-axes,
``AXES_CLIENT_IP_CALLABLE``) and of the check API's rate limit (django-ratelimit,
``RATELIMIT_IP_META_KEY``), so that both count the same client.

Served directly (the default, ``BENCHDB_TRUSTED_PROXIES=0``): ``REMOTE_ADDR``, and any
``X-Forwarded-For`` a client sends is ignored (it could name anyone). Behind N reverse
proxies that each append the address they received the request from to
``X-Forwarded-For`` (nginx's ``$proxy_add_x_forwarded_for``, HAProxy's ``option
forwardfor``, most TLS terminators): set ``BENCHDB_TRUSTED_PROXIES=N``; the client is
the N-th address from the right of that header, the first one a trusted proxy wrote
(addresses to its left are the client's own and are not believed). A proxy that sets
its own one-address header instead (``X-Real-IP``): ``BENCHDB_CLIENT_IP_HEADER=X-Real-IP``
and ``BENCHDB_TRUSTED_PROXIES=1``. Without the setting, behind a proxy every client
shares the proxy's address: one client's failed logins and checks count for all.

A request whose header holds fewer addresses than proxies (it did not pass them all),
or whose chosen address is not an IP address, is keyed by ``REMOTE_ADDR``.
Reads ``settings.BENCHDB_TRUSTED_PROXIES`` and ``settings.BENCHDB_CLIENT_IP_HEADER``
at each call.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The address requests of ``request``'s client are counted by (module docstring)."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "BENCHDB_TRUSTED_PROXIES", 0))
    if proxies <= 0:
        return remote
    header = str(getattr(settings, "BENCHDB_CLIENT_IP_HEADER", "X-Forwarded-For"))
    value = str(request.META.get("HTTP_" + header.upper().replace("-", "_")) or "")
    hops = [h.strip() for h in value.split(",") if h.strip()]
    if len(hops) < proxies:
        return remote
    chosen = hops[-proxies]
    try:
        return str(ipaddress.ip_address(chosen))
    except ValueError:
        return remote
