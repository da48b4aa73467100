import functools
import json
from pathlib import Path

_DATA = Path(__file__).with_name("zones.json")


@functools.lru_cache(maxsize=1)
def _zones() -> dict:
    return json.loads(_DATA.read_text())


def zone_for(country_code: str) -> str:
    return _zones().get(country_code.upper(), "UTC")
