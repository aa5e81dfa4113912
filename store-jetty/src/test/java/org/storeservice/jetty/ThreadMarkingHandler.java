package org.storeservice.jetty;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Marks the thread Jetty calls the handler on while the call runs (so a test storage can tell whether it was
 * called inside that call), and runs {@code afterReturn} once the call has returned.
 */
final class ThreadMarkingHandler extends Handler.Wrapper {
    private final ThreadLocal<Boolean> insideHandler;
    private final Runnable afterReturn;

    ThreadMarkingHandler(Handler handler, ThreadLocal<Boolean> insideHandler, Runnable afterReturn) {
        super(handler);
        this.insideHandler = insideHandler;
        this.afterReturn = afterReturn;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        insideHandler.set(true);
        try {
            return super.handle(request, response, callback);
        } finally {
            insideHandler.set(false);
            afterReturn.run();
        }
    }
}
