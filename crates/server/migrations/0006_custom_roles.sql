-- Each role grants one permission level; the four built-in roles grant their own name's.
ALTER TABLE roles ADD COLUMN permission TEXT NOT NULL DEFAULT 'READ';
ALTER TABLE roles ADD COLUMN built_in INTEGER NOT NULL DEFAULT 0;
UPDATE roles SET permission = name, built_in = 1 WHERE name IN ('ADMIN', 'WRITE', 'DEPLOY', 'READ');
