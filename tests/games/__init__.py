"""Games that exist only for the tests: small games the platform's generic layers are tested with
(registered by the tests, never by the package)."""
