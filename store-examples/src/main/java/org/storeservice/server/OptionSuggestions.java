package org.storeservice.server;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options a mistyped one most likely meant: those within two edits of it (a swapped pair of letters counts as
 * one: {@code --prot} is {@code --port}), closest first; failing those, picocli's own suggestions (options that
 * start alike).
 */
final class OptionSuggestions {
    private static final int MAX_EDITS = 2;

    private OptionSuggestions() {
    }

    static List<String> closest(CommandSpec command, String typed, List<String> picocliSuggestions) {
        String name = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
        List<String> near = new ArrayList<>();
        for (OptionSpec option : command.options()) {
            for (String candidate : option.names()) {
                if (candidate.startsWith("--") && edits(name, candidate) <= MAX_EDITS) {
                    near.add(candidate);
                }
            }
        }
        near.sort(Comparator.comparingInt((String candidate) -> edits(name, candidate)).thenComparing(c -> c));
        Set<String> all = new LinkedHashSet<>(near.isEmpty() ? picocliSuggestions : near);
        all.remove(name);
        return all.stream().limit(3).toList();
    }

    /** Edits from {@code a} to {@code b}: insertions, deletions, substitutions and swaps of neighbours. */
    static int edits(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
