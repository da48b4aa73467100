package com.acme.billing;

public enum Currency {
    EUR, USD;

    public String symbol() {
        return this == EUR ? "€" : "$";
    }
}
