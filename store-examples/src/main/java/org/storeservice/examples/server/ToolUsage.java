package org.storeservice.examples.server;

/** Usage lines the operators' subcommands share. */
final class ToolUsage {
    static final String STORAGE_OPTION =
            "  --storage URI        the store to read or write (default " + ServerOptions.DEFAULT_STORAGE_URI + ")";
    static final String HELP_OPTION = "  --help               print this help and exit";

    private ToolUsage() {
    }
}
