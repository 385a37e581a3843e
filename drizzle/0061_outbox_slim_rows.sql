-- Hand-written (drizzle cannot declare storage parameters). A queued message is written once and moved
-- about four times (claimed, allocated, delivering, sent). Its body was stored in the row: a newsletter
-- of 7.6 KB compresses to ~1.9 KB, just under the ~2 KB at which PostgreSQL moves values out of line, so
-- every move copied the whole body into a new row version and into the WAL. With toast_tuple_target at
-- its minimum the compressed body (and text part, links) goes out of line and a move copies an 18-byte
-- pointer instead (WAL per move down from ~1,600 to ~1,000 bytes in a 500-row test). With full pages no
-- move could stay on its page (a HOT update), so each one also inserted into every index; 30% free room
-- lets the moves that change no indexed column (the 'delivering' phase) stay on the page: 9 WAL records
-- per row down to 2 for that move. Rows written from now on follow; older ones stay as they are.
ALTER TABLE outbox_messages SET (toast_tuple_target = 128, fillfactor = 70);
