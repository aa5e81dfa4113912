package org.storeservice.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.storeservice.api.Status;
import org.storeservice.api.Store;

/**
 * Run by {@link LargeContentTest} in a child JVM with a small heap: a SOAP WriteBytes request of
 * {@code args[0]} content bytes, generated while it is read (never materialized), goes through the codec into
 * a store that only counts and hashes. Prints the HTTP status, the count and the SHA-256 of what the store
 * read, then the same for what was sent.
 */
public final class LargeContentMain {
    private LargeContentMain() {
    }

    public static void main(String[] args) throws Exception {
        long contentBytes = Long.parseLong(args[0]);
        boolean contentFirst = args.length > 1 && args[1].equals("content-first");
        HashingStore store = new HashingStore();
        StoreCodec codec = StoreCodec.builder(store)
                .limits(CodecLimits.builder().maxRequestBytes(contentBytes * 2 + 10_000).build()).build();
        CodecResponse response = codec.handle(CodecRequest.builder("POST", "/API/Store.asmx")
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"http://tempuri.org/WriteBytes\"")
                .body(new GeneratedRequest(contentBytes, contentFirst)).build());
        MessageDigest sent = MessageDigest.getInstance("SHA-256");
        SplittableRandom random = new SplittableRandom(42);
        byte[] chunk = new byte[3 * 1024];
        for (long left = contentBytes; left > 0; left -= chunk.length) {
            random.nextBytes(chunk);
            sent.update(chunk, 0, (int) Math.min(chunk.length, left));
        }
        System.out.println(response.status() + " " + store.count + " " + HexFormat.of().formatHex(store.digest.digest()));
        System.out.println("200 " + contentBytes + " " + HexFormat.of().formatHex(sent.digest()));
    }

    /** Counts and hashes what it is given; keeps nothing. */
    private static final class HashingStore implements Store {
        private final MessageDigest digest;
        private long count;

        HashingStore() throws NoSuchAlgorithmException {
            digest = MessageDigest.getInstance("SHA-256");
        }

        @Override
        public Status writeString(String key, String value) {
            return Status.ERROR;
        }

        @Override
        public Status writeBytes(String key, InputStream content) {
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = content.read(buffer)) >= 0; ) {
                    digest.update(buffer, 0, n);
                    count += n;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return "k".equals(key) ? Status.SUCCESS : Status.ERROR;
        }
    }

    /** The request body, produced on demand: envelope start, base64 of seeded random bytes, envelope end. */
    private static final class GeneratedRequest extends InputStream {
        private final SplittableRandom random = new SplittableRandom(42);
        private final byte[] rawChunk = new byte[3 * 1024];
        private long contentLeft;
        private final byte[] tail;
        private byte[] current;
        private int position;
        private boolean tailServed;

        GeneratedRequest(long contentBytes, boolean contentFirst) {
            contentLeft = contentBytes;
            String ns = "http://tempuri.org/";
            String head = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                    + "<soap:Body><WriteBytes xmlns=\"" + ns + "\">" + (contentFirst ? "" : "<key>k</key>") + "<content>";
            current = head.getBytes(StandardCharsets.US_ASCII);
            tail = ("</content>" + (contentFirst ? "<key>k</key>" : "") + "</WriteBytes></soap:Body></soap:Envelope>")
                    .getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            while (position == current.length) {
                if (contentLeft > 0) {
                    random.nextBytes(rawChunk);
                    int n = (int) Math.min(rawChunk.length, contentLeft);
                    contentLeft -= n;
                    current = Base64.getEncoder().encode(n == rawChunk.length ? rawChunk : java.util.Arrays.copyOf(rawChunk, n));
                } else if (!tailServed) {
                    tailServed = true;
                    current = tail;
                } else {
                    return -1;
                }
                position = 0;
            }
            int n = Math.min(len, current.length - position);
            System.arraycopy(current, position, b, off, n);
            position += n;
            return n;
        }
    }
}
