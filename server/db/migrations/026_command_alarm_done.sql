-- A reboot is acknowledged before it is over (migration 024): its CMD_FAILED alarm (migration 022)
-- clears when it is done, and another command's when it is acknowledged.
CREATE OR REPLACE FUNCTION command_alarm() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.state IN ('failed', 'expired') THEN PERFORM rule_alarm_set(NEW.device_id, 'CMD_FAILED', true, NEW.kind);
    ELSIF NEW.state = 'done' OR (NEW.state = 'acknowledged' AND NEW.kind <> 'reboot') THEN
      PERFORM rule_alarm_set(NEW.device_id, 'CMD_FAILED', false, NULL);
    END IF;
    RETURN NULL;
  END $$;
