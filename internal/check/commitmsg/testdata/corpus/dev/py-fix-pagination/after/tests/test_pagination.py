import pytest

from api.pagination import paginate


def test_first_page():
    p = paginate(list(range(50)), 1, 20)
    assert p.items == list(range(20))


def test_last_partial_page_counts():
    p = paginate(list(range(50)), 3, 20)
    assert p.pages == 3
    assert p.items == list(range(40, 50))


def test_invalid_per_page():
    with pytest.raises(ValueError):
        paginate([1], 1, 0)
