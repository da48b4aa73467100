import requests


def pull(url, session=None):
    s = session or requests.Session()
    r = s.get(url)
    r.raise_for_status()
    return r.json()
