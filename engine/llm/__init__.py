"""Model providers, structured answers, tier routing, the cost ledger and the gateway that owns them."""
