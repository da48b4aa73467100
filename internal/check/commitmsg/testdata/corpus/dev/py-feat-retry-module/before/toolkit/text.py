def shout(s: str) -> str:
    return s.upper() + "!"
