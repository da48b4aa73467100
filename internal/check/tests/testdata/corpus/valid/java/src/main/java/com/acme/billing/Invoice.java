package com.acme.billing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

public class Invoice {
    private final List<BigDecimal> lines = new ArrayList<>();

    public Invoice add(BigDecimal amount) {
        if (amount.signum() < 0) {
            throw new IllegalArgumentException("negative line: " + amount);
        }
        lines.add(amount);
        return this;
    }

    public BigDecimal total() {
        return lines.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    public String render() {
        return """
            Invoice
            total: %s
            """.formatted(total());
    }
}
