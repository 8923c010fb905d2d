// Menu badge statistics (SPEC §2.1, §4, §6): loaded only for the roles that show badges, and
// fetched again when the learning year changes.
import { useEffect, useState } from 'react';
import type { MenuBadges, ShellApi } from '../dataProvider/api';
import { BADGE_ROLES, type Role } from '../domain/roles';

export function useMenuBadges(
  api: Pick<ShellApi, 'menuBadges'>,
  role: Role | undefined,
  dateType: number | null,
  learningYear: string,
): MenuBadges {
  const [badges, setBadges] = useState<MenuBadges>({});
  const enabled = !!role && BADGE_ROLES.includes(role);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    api.menuBadges(dateType ?? 0).then(
      (data) => current && setBadges(data ?? {}),
      () => current && setBadges({}),
    );
    return () => {
      current = false;
    };
  }, [api, enabled, dateType, learningYear]);
  return enabled ? badges : {};
}
