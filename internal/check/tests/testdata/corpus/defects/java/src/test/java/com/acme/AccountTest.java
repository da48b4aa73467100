package com.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.Ignore;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class AccountTest {
    @Test
    void depositsAddUp() {
        Account a = new Account();
        a.deposit(5);
        a.deposit(7);
        assertEquals(12, a.balance());
    }

    @Test
    void depositDoesSomething() {
        Account a = new Account();
        a.deposit(5);
        System.out.println(a.balance());
    }

    @Test
    void withdrawals() {
    }

    @Disabled
    @Test
    void overdraft() {
        assertEquals(0, new Account().balance());
    }

    @Ignore
    @Test
    public void interest() {
        assertEquals(0, new Account().balance());
    }

    @Test
    void asyncDeposit() throws Exception {
        Account a = new Account();
        new Thread(() -> a.deposit(1)).start();
        Thread.sleep(200);
        assertEquals(1, a.balance());
    }
}
