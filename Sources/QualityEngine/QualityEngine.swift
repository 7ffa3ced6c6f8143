// The quality engine: a pure reducer over trace records (contract.md, "Quality engine").
