// Support tools over traces: redaction and reduction.
