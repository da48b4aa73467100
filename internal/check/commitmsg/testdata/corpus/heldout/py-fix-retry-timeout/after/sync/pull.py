import requests


def pull(url, session=None, attempts=3):
    s = session or requests.Session()
    for i in range(attempts):
        try:
            r = s.get(url, timeout=10)
            r.raise_for_status()
            return r.json()
        except (requests.ConnectionError, requests.Timeout):
            if i == attempts - 1:
                raise
