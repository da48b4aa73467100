def test_unclosed():
    assert "abc == "abc"
