package com.acme;

import java.util.ArrayList;
import java.util.List;

public class Ledger {
    private final List<Long> entries = new ArrayList<>();

    public void record(long cents) {
        entries.add(cents);
    }

    public long balance() {
        return entries.stream().mapToLong(Long::longValue).sum();
    }
}
