-- Support and system: fault clearing records, after-sales reports, permission groups
-- and their members, console settings.
CREATE TABLE fault_clearing_records (
  id serial PRIMARY KEY,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  code text NOT NULL,
  steps_done integer[] NOT NULL DEFAULT '{}',
  action text NOT NULL,
  cleared boolean NOT NULL,
  recorded_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fault_clearing_records_device_idx ON fault_clearing_records (device_id, id);

CREATE TABLE after_sales_reports (
  id serial PRIMARY KEY,
  device_model text NOT NULL,
  device_sn text NOT NULL,
  feedback_apartment text NOT NULL,
  feedback_people text NOT NULL,
  customer text NOT NULL,
  device_num text NOT NULL,
  dispatch_of_data date NOT NULL,
  customer_suggestion text,
  classification text NOT NULL,
  description text NOT NULL,
  department text NOT NULL,
  reamrk text,
  device_id integer REFERENCES devices (id) ON DELETE SET NULL,
  fault_code text,
  reporter_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX after_sales_reports_date_idx ON after_sales_reports (dispatch_of_data, id);
CREATE INDEX after_sales_reports_classification_idx ON after_sales_reports (classification, id);

CREATE TABLE permission_groups (
  id serial PRIMARY KEY,
  name text NOT NULL,
  description text,
  permissions text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX permission_groups_name_key ON permission_groups (lower(name));

CREATE TABLE permission_group_members (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  group_id integer NOT NULL REFERENCES permission_groups (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, group_id)
);
CREATE INDEX permission_group_members_group_idx ON permission_group_members (group_id);

CREATE TABLE console_settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
