import pytest

from slugify.core import slugify


def test_basic():
    assert slugify("Hello World") == "hello-world"


@pytest.mark.parametrize(
    "text,expected",
    [("Crème brûlée", "creme-brulee"), ("  spaced   out ", "spaced-out"), ("a--b", "a-b")],
)
def test_normalizes(text, expected):
    assert slugify(text) == expected


def test_max_length_strips_dash():
    assert slugify("hello world again", max_length=6) == "hello"
