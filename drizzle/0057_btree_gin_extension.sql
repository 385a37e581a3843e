-- Hand-written: btree_gin lets the keyword index of directory_contacts hold plain columns (country,
-- category, city, verification status) next to the name trigrams. Its own migration, so the extension
-- exists before the next one builds that index.
CREATE EXTENSION IF NOT EXISTS btree_gin;
