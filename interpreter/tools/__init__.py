"""Tools for authors and researchers: scenario tests, simulations (local processes or Ray), the
benchmark and the description of a game. Take a loaded game; give reports."""
