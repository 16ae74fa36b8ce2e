"""Loading: the bytes of a game file to a checked ``Spec``. Safe YAML with a position for every
value, the structure checked against the JSON Schema, declarations and options, variants merged."""
