-- Secret values of a service (terraform's secret variables), apart from the record callers see.
ALTER TABLE services ADD COLUMN secrets TEXT NOT NULL DEFAULT '{}';
