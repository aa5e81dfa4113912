package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The text log line is slf4j-simple's, as the docs show it: a stack trace exactly as Java prints it. */
class TextLogLayoutTest {
    private final LoggerContext context = new LoggerContext();

    @Test
    void aLineIsTimeLevelShortNameAndMessage() {
        String line = layout(new LoggingEvent("test", context.getLogger("org.storeservice.jetty.StoreServer"),
                Level.WARN, "Stopping: {} in flight", null, new Object[] {3}));
        assertTrue(line.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}[+-]\\d{4} WARN StoreServer"
                + " - Stopping: 3 in flight" + System.lineSeparator()), line);
    }

    @Test
    void anExceptionFollowsAsJavaPrintsIt() {
        IllegalStateException failure = new IllegalStateException("outer", new java.io.IOException("inner"));
        String text = layout(new LoggingEvent("test", context.getLogger("org.example.Thing"), Level.ERROR, "failed", failure, null));
        StringWriter expected = new StringWriter();
        failure.printStackTrace(new PrintWriter(expected, true));
        String firstLine = text.substring(0, text.indexOf(System.lineSeparator()) + System.lineSeparator().length());
        assertTrue(firstLine.endsWith(" ERROR Thing - failed" + System.lineSeparator()), firstLine);
        assertEquals(expected.toString(), text.substring(firstLine.length()));
    }

    private String layout(LoggingEvent event) {
        TextLogLayout layout = new TextLogLayout();
        layout.setContext(context);
        layout.start();
        return layout.doLayout(event);
    }
}
