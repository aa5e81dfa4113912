package org.storeservice.server;

import java.io.PrintStream;

/**
 * What {@code diff} prints: a line for each key that differs, in key order, up to a number per kind, then the three
 * counts, whole, and the verdict. Reads the same for one difference and for a hundred thousand.
 */
final class DiffReport {
    private final PrintStream out;
    private final long shown;
    private long onlyInA;
    private long onlyInB;
    private long different;
    private long same;

    /** @param shown how many keys of each kind are listed */
    DiffReport(PrintStream out, long shown) {
        this.out = out;
        this.shown = shown;
    }

    void onlyInA(EntryDigest entry) {
        if (++onlyInA <= shown) {
            out.println("only in A:  " + Quoted.of(entry.key()) + "  (" + entry.describe() + ")");
        }
    }

    void onlyInB(EntryDigest entry) {
        if (++onlyInB <= shown) {
            out.println("only in B:  " + Quoted.of(entry.key()) + "  (" + entry.describe() + ")");
        }
    }

    void both(EntryDigest inA, EntryDigest inB) {
        if (inA.sameValue(inB)) {
            same++;
            return;
        }
        if (++different <= shown) {
            String how = inA.kind() == inB.kind() && inA.length() == inB.length() ? "same type and length, other content"
                    : "A " + inA.describe() + ", B " + inB.describe();
            out.println("different:  " + Quoted.of(inA.key()) + "  (" + how + ")");
        }
    }

    void finish() {
        out.println("only in A: " + onlyInA + unlisted(onlyInA));
        out.println("only in B: " + onlyInB + unlisted(onlyInB));
        out.println("different values: " + different + unlisted(different));
        long keys = onlyInA + onlyInB + different + same;
        out.println(equal() ? "equal: " + same + (same == 1 ? " entry" : " entries") + " on both sides"
                : "not equal: " + (onlyInA + onlyInB + different) + " of " + keys + " keys differ");
    }

    private String unlisted(long count) {
        return count > shown ? " (the first " + shown + " listed; --all lists every one)" : "";
    }

    boolean equal() {
        return onlyInA == 0 && onlyInB == 0 && different == 0;
    }
}
