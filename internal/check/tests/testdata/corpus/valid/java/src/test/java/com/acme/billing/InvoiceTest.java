package com.acme.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;

import java.math.BigDecimal;
import java.util.function.Consumer;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InvoiceTest {

    @Test
    void totalsItsLines() {
        Invoice invoice = new Invoice().add(new BigDecimal("1.50")).add(BigDecimal.ONE);
        assertEquals(new BigDecimal("2.50"), invoice.total());
    }

    @Test
    @DisplayName("a negative line is refused with the amount in the message")
    void refusesNegativeLines() {
        var e = assertThrows(IllegalArgumentException.class, () -> new Invoice().add(new BigDecimal("-1")));
        assertThat(e).hasMessageContaining("-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "10", "99.99"})
    void rendersTotal(String amount) {
        String text = new Invoice().add(new BigDecimal(amount)).render();
        checkRendered(text, amount);
    }

    private static void checkRendered(String text, String amount) {
        assertThat(text).contains("total: " + amount);
    }

    @Test
    void rendersATextBlock() {
        String expected = """
            Invoice
            total: 0
            """;
        assertEquals(expected, new Invoice().render());
    }

    @Test
    @SuppressWarnings("unchecked")
    void notifiesListener() {
        Consumer<Invoice> listener = mock(Consumer.class);
        Invoice invoice = new Invoice();
        listener.accept(invoice);
        verify(listener).accept(invoice);
    }

    @Disabled("rounding rules are being decided in BILL-42")
    @Test
    void roundsHalfEven() {
        assertEquals(new BigDecimal("0.12"), new Invoice().add(new BigDecimal("0.125")).total());
    }

    @Test
    void waitsForTheExportWithAPoll() throws InterruptedException {
        long deadline = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            Thread.sleep(10); // polling, with a deadline
        }
        assertThat(deadline).isPositive();
    }
}
