import pytest

from inventory import Stock


@pytest.fixture
def stock():
    return Stock({"apple": 3})
