"""Test vectors shared by the Python and JavaScript decoders, and the script that makes them."""
