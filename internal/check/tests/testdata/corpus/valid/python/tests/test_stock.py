import sys
import time
import unittest
from unittest import mock

import pytest

from inventory import Stock, restock


def test_add_increases_count(stock):
    stock.add("apple", 2)
    assert stock.items["apple"] == 5


@pytest.mark.parametrize(
    "sku, count, expected",
    [
        ("apple", 1, 2),
        ("apple", 3, 0),
    ],
)
def test_take(stock, sku, count, expected):
    assert stock.take(sku, count) == expected


def test_take_too_many_raises(stock):
    with pytest.raises(LookupError, match=r"only 3 of apple left"):
        stock.take("apple", 4)


def test_messages_use_nested_fstrings(stock):
    names = {"a": "apple"}
    msg = f"{names["a"]!r:>10} has {stock.items[f'{names['a']}']:03d} {'items'}"
    assert "apple" in msg, f"got {msg=}"


@pytest.mark.skip(reason="the warehouse API is down until #88 is fixed")
def test_sync_with_warehouse():
    assert False


@pytest.mark.skipif(sys.platform == "win32", reason="no fork on Windows")
def test_fork_safe(stock):
    assert stock.take("apple") == 2


def check_restocked(stock, sku, count):
    assert stock.items[sku] == count


def test_restock_uses_helper():
    check_restocked(restock(Stock(), {"pear": 4}), "pear", 4)


def test_restock_calls_add():
    stock = mock.Mock()
    restock(stock, {"pear": 1})
    stock.add.assert_called_once_with("pear", 1)


def test_eventually_consistent():
    deadline = time.monotonic() + 1
    while time.monotonic() < deadline:
        if Stock({"x": 1}).items:
            break
        time.sleep(0.01)  # polling with a deadline
    else:
        pytest.fail("never consistent")


class TestStock:
    def test_negative_count_rejected(self, stock):
        with pytest.raises(ValueError):
            stock.add("apple", -1)

    async def test_async_take(self, stock):
        assert stock.take("apple") == 2


class StockTestCase(unittest.TestCase):
    def setUp(self):
        self.stock = Stock({"kiwi": 1})

    def assertLeft(self, sku, count):
        self.assertEqual(self.stock.items[sku], count)

    def test_take_last(self):
        self.stock.take("kiwi")
        self.assertLeft("kiwi", 0)

    def test_take_missing(self):
        with self.assertRaises(LookupError):
            self.stock.take("plum")

    @unittest.skip("needs the real database")
    def test_persist(self):
        self.fail("not reached")

    @unittest.skipIf(sys.version_info < (3, 12), "needs PEP 701 f-strings")
    def test_modern(self):
        self.assertTrue(True)
