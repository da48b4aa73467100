from api.pagination import paginate


def test_first_page():
    p = paginate(list(range(50)), 1, 20)
    assert p.items == list(range(20))
