import json
from pathlib import Path

import pytest


@pytest.fixture
def catalog():
    return json.loads((Path(__file__).parent / "data" / "catalog.json").read_text())
