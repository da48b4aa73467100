import json
from pathlib import Path

_DATA = Path(__file__).with_name("zones.json")


def zone_for(country_code: str) -> str:
    zones = json.loads(_DATA.read_text())
    return zones.get(country_code.upper(), "UTC")
