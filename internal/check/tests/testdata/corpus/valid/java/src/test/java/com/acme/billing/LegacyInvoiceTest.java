package com.acme.billing;

import java.math.BigDecimal;
import org.junit.Assert;
import org.junit.Ignore;
import org.junit.Test;

public class LegacyInvoiceTest {
    @Test(expected = IllegalArgumentException.class)
    public void refusesNegative() {
        new Invoice().add(new BigDecimal("-5"));
    }

    @Test
    public void startsAtZero() {
        Assert.assertEquals(BigDecimal.ZERO, new Invoice().total());
    }

    @Ignore("replaced by InvoiceTest.rendersTotal")
    @Test
    public void renders() {
        Assert.assertTrue(new Invoice().render().contains("Invoice"));
    }
}
