"""The tests import the checkout's own modules, and keep a cache of their own: nothing is written
into the user's cache folder (~/.cache/rules); it goes when the run ends."""
import atexit
import os
import pathlib
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

_CACHE = tempfile.mkdtemp(prefix="rules-tests-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


@pytest.fixture(params=["lean", "reference"])
def engine(request):
    """Each engine in turn: a test of what a game does runs over both."""
    return request.param
