def make(strict: bool = True) -> bool:
    return strict
