from app.prices import apply_discount


def test_discount_over_catalog(catalog):
    assert [apply_discount(p["price"], 10) for p in catalog] == [9.0, 89.99]
