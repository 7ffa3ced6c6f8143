// The route engine: a pure reducer over trace records (contract.md, "Route engine").
