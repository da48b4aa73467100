import json
import urllib.request


def get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


def post(url, data, timeout=10):
    req = urllib.request.Request(url, data=data, method="POST")
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.read()


def get_json_legacy(url):
    """Deprecated since 1.4: use json.loads(get(url))."""
    return json.loads(get(url).decode("latin-1"))
