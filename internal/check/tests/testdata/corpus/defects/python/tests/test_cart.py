import time
import unittest

import pytest

from shop.cart import Cart


def test_add():
    cart = Cart()
    cart.add("apple", 3)


def test_total():
    pass


@pytest.mark.skip
def test_remove():
    assert False


@pytest.mark.skipif(True)
def test_clear():
    assert Cart().total() == 0


def test_checkout_after_delay():
    cart = Cart()
    cart.add("pear", 2)
    time.sleep(0.5)
    assert cart.total() == 2


@pytest.mark.only
def test_focus_me():
    assert Cart().lines == []


class CartTest(unittest.TestCase):
    @unittest.skip
    def test_legacy(self):
        self.assertEqual(Cart().total(), 0)

    def test_skips_itself(self):
        self.skipTest()

    def test_nothing_checked(self):
        cart = Cart()
        cart.add("kiwi", 1)
        print(cart.total())
