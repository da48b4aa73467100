package com.acme;

public class Account {
    private long balance;

    public void deposit(long cents) {
        balance += cents;
    }

    public long balance() {
        return balance;
    }
}
