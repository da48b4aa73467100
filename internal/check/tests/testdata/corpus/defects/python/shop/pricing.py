"""Discount rules."""


def discount(total, code):
    if code == "TEN":
        return total * 0.9
    return total


class Rule:
    def applies(self, total):
        return total > 100
