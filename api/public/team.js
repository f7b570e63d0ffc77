// The portal's team panel (issue 48): who is signed in with which role, the members, invitations,
// role changes and removal, the audit log with its CSV/JSON export, a password change, and the
// join page a `/#join=<token>` link opens. Runs beside portal.js and uses its `state`, `call`,
// `withToken`, `say`, `showAccount`, `logout` and table helpers. What the member's role cannot do is
// hidden; the server decides anyway (a 403 is shown as it says). User text goes in as textContent.
'use strict';

window.portalTeam = (() => {
  const WORDS = {
    ko: {
      joinTitle: '팀에 들어가기', joinLead: '초대를 받았습니다. 비밀번호를 정하면 팀에 들어가고 바로 로그인합니다.',
      joinPassword: '사용할 비밀번호 (8자 이상)', joinSubmit: '비밀번호 정하고 팀에 들어가기', joined: (team) => `${team} 팀에 들어왔습니다. 로그인했어요.`,
      teamTitle: '팀', role: '역할', joinedCol: '들어온 날', lastSeen: '마지막 접속', never: '없음',
      whoami: (email, role, team) => `${email} · 역할: ${role} · 팀: ${team}`, you: ' (나)',
      inviteTitle: '팀원 초대', inviteSubmit: '초대하기', copyLink: '링크 복사', copied: '링크를 복사했습니다.',
      invited: (email) => `${email} 님을 초대했습니다.`,
      mailed: '초대 메일을 보냈습니다. 메일이 오지 않으면 아래 링크를 직접 전해 주세요 (한 번만 쓸 수 있고 7일 동안 유효합니다).',
      notMailed: '초대 메일은 보내지 않았습니다. 아래 링크를 초대할 사람에게 직접 전해 주세요 (지금 한 번만 보이고, 한 번만 쓸 수 있으며 7일 동안 유효합니다).',
      changeRole: '역할 바꾸기', roleChanged: (email, role) => `${email} 님의 역할을 ${role}(으)로 바꿨습니다.`,
      remove: '내보내기', leave: '팀 떠나기',
      confirmRemove: (email) => `${email} 님을 팀에서 내보낼까요? 그 사람의 로그인은 바로 끝나고, 만든 API 키는 팀에 남습니다.`,
      confirmLeave: '팀을 떠날까요? 바로 로그아웃되고 이 팀에 다시 들어오려면 새 초대가 필요합니다.',
      confirmRole: (email, role) => `${email} 님의 역할을 ${role}(으)로 바꿀까요?`,
      removed: (email) => `${email} 님을 내보냈습니다.`, left: '팀을 떠났습니다.',
      auditTitle: '감사 로그', auditNote: '누가, 언제, 어디서, 무엇을 했는지 1년 동안 보관합니다. 키·비밀번호·토큰·메시지 내용은 기록하지 않습니다.',
      action: '작업', from: '시작일', to: '종료일', filter: '보기', allActions: '모든 작업', at: '시각', actor: '누가', target: '대상',
      downloadCsv: 'CSV 내려받기', downloadJson: 'JSON 내려받기', noEvents: '조건에 맞는 기록이 없습니다.', downloaded: (name) => `${name} 파일을 내려받았습니다.`,
      passwordTitle: '비밀번호 바꾸기', currentPassword: '지금 비밀번호', newPassword: '새 비밀번호 (8자 이상)', changePassword: '비밀번호 바꾸기',
      passwordChanged: '비밀번호를 바꿨습니다. 다른 기기의 로그인은 끝났습니다.',
      roles: { owner: '소유자', admin: '관리자', developer: '개발자', viewer: '보기 전용' },
      kinds: { member: '팀원', api_key: 'API 키', slack: 'Slack', discord: 'Discord', system: '시스템' },
      actions: {
        'key.created': 'API 키 만듦', 'key.renamed': 'API 키 이름·만료일 바꿈', 'key.rotated': 'API 키 교체', 'key.revoked': 'API 키 폐기',
        'subscription.changed': '구독 바뀜', 'member.invited': '팀원 초대', 'member.joined': '팀원 들어옴', 'member.role_changed': '팀원 역할 바뀜',
        'member.removed': '팀원 나감', 'password.changed': '비밀번호 바뀜', 'workspace.linked': '워크스페이스 연결', 'guard.changed': '링크 가드 설정 바뀜',
      },
    },
    en: {
      joinTitle: 'Join the team', joinLead: 'You were invited. Set your password to join the team; you are signed in right away.',
      joinPassword: 'Your password (8+ characters)', joinSubmit: 'Set password and join', joined: (team) => `You joined ${team}'s team and are signed in.`,
      teamTitle: 'Team', role: 'Role', joinedCol: 'Joined', lastSeen: 'Last seen', never: 'never',
      whoami: (email, role, team) => `${email} · role: ${role} · team: ${team}`, you: ' (you)',
      inviteTitle: 'Invite a member', inviteSubmit: 'Invite', copyLink: 'Copy link', copied: 'Link copied.',
      invited: (email) => `Invited ${email}.`,
      mailed: 'The invitation was mailed. If it does not arrive, pass on the link below (one use, valid 7 days).',
      notMailed: 'No invitation mail was sent. Pass on the link below yourself (shown only now; one use, valid 7 days).',
      changeRole: 'Change role', roleChanged: (email, role) => `${email} is now ${role}.`,
      remove: 'Remove', leave: 'Leave the team',
      confirmRemove: (email) => `Remove ${email} from the team? Their sessions end at once; the keys they made stay with the team.`,
      confirmLeave: 'Leave the team? You are signed out at once, and joining again needs a new invitation.',
      confirmRole: (email, role) => `Make ${email} ${role}?`,
      removed: (email) => `Removed ${email}.`, left: 'You left the team.',
      auditTitle: 'Audit log', auditNote: 'Who did what, when and from where, kept 1 year. Keys, passwords, tokens and message texts are never recorded.',
      action: 'Action', from: 'From', to: 'To', filter: 'Show', allActions: 'All actions', at: 'When', actor: 'Who', target: 'Target',
      downloadCsv: 'Download CSV', downloadJson: 'Download JSON', noEvents: 'No events match.', downloaded: (name) => `Downloaded ${name}.`,
      passwordTitle: 'Change password', currentPassword: 'Current password', newPassword: 'New password (8+ characters)', changePassword: 'Change password',
      passwordChanged: 'Password changed. Sessions on other devices have ended.',
      roles: { owner: 'owner', admin: 'admin', developer: 'developer', viewer: 'viewer' },
      kinds: { member: 'member', api_key: 'API key', slack: 'Slack', discord: 'Discord', system: 'system' },
      actions: {
        'key.created': 'key created', 'key.renamed': 'key renamed', 'key.rotated': 'key rotated', 'key.revoked': 'key revoked',
        'subscription.changed': 'subscription changed', 'member.invited': 'member invited', 'member.joined': 'member joined',
        'member.role_changed': 'member role changed', 'member.removed': 'member removed', 'password.changed': 'password changed',
        'workspace.linked': 'workspace linked', 'guard.changed': 'guard changed',
      },
    },
  };
  const ROLES = ['owner', 'admin', 'developer', 'viewer'];
  // What each role may do (src/platform/roles.ts ROLE_RIGHTS): only to hide what would be refused.
  const RIGHTS = {
    owner: ['read', 'keys', 'subscriptions', 'members', 'audit'],
    admin: ['read', 'keys', 'subscriptions', 'members', 'audit'],
    developer: ['read', 'keys'],
    viewer: ['read'],
  };
  const ACTIONS = Object.keys(WORDS.ko.actions);
  const w = () => WORDS[state.lang === 'en' ? 'en' : 'ko'];
  const roleName = (role) => w().roles[role] ?? role;
  const can = (right) => Boolean(state.user && RIGHTS[state.user.role]?.includes(right));
  let joinToken;

  function label() {
    for (const node of document.querySelectorAll('[data-team]')) node.textContent = w()[node.dataset.team];
    fillSelect($('invite-role'), invitableRoles().map((role) => [role, roleName(role)]), $('invite-role').value || 'developer');
    fillSelect($('audit-action'), [['', w().allActions], ...ACTIONS.map((action) => [action, w().actions[action]])], $('audit-action').value);
  }

  function fillSelect(select, options, chosen) {
    select.replaceChildren(
      ...options.map(([value, text]) => {
        const option = document.createElement('option');
        option.value = value;
        option.textContent = text;
        return option;
      }),
    );
    if (options.some(([value]) => value === chosen)) select.value = chosen;
  }

  /** Only an owner makes owners. */
  const invitableRoles = () => (state.user?.role === 'owner' ? ROLES : ROLES.filter((role) => role !== 'owner'));

  function message(text) {
    $('team-message').textContent = text ?? '';
  }

  /** Signed in: the role and the team, and what the role may see. */
  async function refresh() {
    const team = state.team;
    $('whoami').textContent = state.user && team ? w().whoami(state.user.email, roleName(state.user.role), team.email) : '';
    $('key-form').hidden = !can('keys');
    $('invite-form').hidden = !can('members');
    $('audit').hidden = !can('audit');
    label();
    const members = await call('GET', '/api/v1/team/members', undefined, withToken());
    if (members.status === 200) renderMembers(members.json.members);
    else message(members.json.error);
    if (can('audit')) await showAudit();
  }

  function renderMembers(members) {
    const table = $('members');
    table.tBodies[0].replaceChildren();
    for (const member of members) {
      const self = member.id === state.user.member_id;
      const row = table.tBodies[0].insertRow();
      row.id = `member-${member.id}`;
      cell(row, member.email + (self ? w().you : ''), t('email'));
      cell(row, roleName(member.role), w().role);
      cell(row, dateText(member.joined_at), w().joinedCol);
      cell(row, member.last_seen_at ? timeText(member.last_seen_at) : w().never, w().lastSeen);
      const actions = row.insertCell();
      actions.className = 'actions';
      // Only an owner changes or removes an owner.
      const manageable = can('members') && (member.role !== 'owner' || state.user.role === 'owner');
      if (manageable) {
        const select = document.createElement('select');
        select.setAttribute('aria-label', `${w().role}: ${member.email}`);
        fillSelect(select, invitableRoles().map((role) => [role, roleName(role)]), member.role);
        actions.append(
          select,
          button(w().changeRole, `${w().changeRole}: ${member.email}`, () => changeRole(member, select.value)),
        );
      }
      if (self) actions.append(button(w().leave, w().leave, () => removeMember(member, true)));
      else if (manageable) actions.append(button(w().remove, `${w().remove}: ${member.email}`, () => removeMember(member, false)));
    }
  }

  async function invite(event) {
    event.preventDefault();
    const email = $('invite-email').value.trim();
    const res = await call('POST', '/api/v1/team/invites', { email, role: $('invite-role').value }, withToken());
    if (res.status !== 201) return message(res.json.error ?? `HTTP ${res.status}`);
    $('invite-email').value = '';
    message(w().invited(res.json.invite.email));
    $('invite-note').textContent = res.json.mailed ? w().mailed : w().notMailed;
    $('invite-url').textContent = res.json.invite_url;
    $('invite-result').hidden = false;
    await refresh();
  }

  async function changeRole(member, role) {
    if (role === member.role) return;
    if (!confirm(w().confirmRole(member.email, roleName(role)))) return;
    const res = await call('PATCH', `/api/v1/team/members/${member.id}`, { role }, withToken());
    if (res.status !== 200) return message(res.json.error ?? `HTTP ${res.status}`);
    message(w().roleChanged(member.email, roleName(role)));
    if (member.id === state.user.member_id) return showAccount();
    await refresh();
  }

  async function removeMember(member, self) {
    if (!confirm(self ? w().confirmLeave : w().confirmRemove(member.email))) return;
    const res = await call('DELETE', `/api/v1/team/members/${member.id}`, undefined, withToken());
    if (res.status !== 200) return message(res.json.error ?? `HTTP ${res.status}`);
    if (self) {
      logout();
      return say(w().left);
    }
    message(w().removed(member.email));
    await refresh();
  }

  /** The filters as a query string (dates are Korea's days, as the API reads them). */
  function auditQuery(format) {
    const query = new URLSearchParams({ format });
    for (const name of ['action', 'from', 'to']) {
      const value = $(`audit-${name}`).value;
      if (value) query.set(name, value);
    }
    return `/api/v1/audit?${query}`;
  }

  async function showAudit(event) {
    event?.preventDefault();
    const res = await call('GET', auditQuery('json'), undefined, withToken());
    const table = $('audit-events');
    table.tBodies[0].replaceChildren();
    if (res.status !== 200) return message(res.json.error ?? `HTTP ${res.status}`);
    if (res.json.events.length === 0) return emptyRow(table, 5, w().noEvents, 'no-audit-events');
    for (const event of res.json.events) {
      const row = table.tBodies[0].insertRow();
      cell(row, timeText(event.at), w().at);
      cell(row, `${event.actor.label} (${w().kinds[event.actor.kind] ?? event.actor.kind})`, w().actor);
      const action = cell(row, w().actions[event.action] ?? event.action, w().action);
      action.title = event.action;
      cell(row, event.target, w().target);
      cell(row, event.ip ?? '', 'IP');
    }
  }

  /** Fetched with the bearer token (never in a URL), then handed to the browser as a file. */
  async function download(format) {
    try {
      const res = await fetch(auditQuery(format), { headers: { ...withToken(), 'accept-language': state.lang } });
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        return message(body.error ?? `HTTP ${res.status}`);
      }
      const disposition = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
      const day = new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Seoul' });
      const name = disposition?.[1] ?? `audit-${day}.${format}`;
      const blob =
        format === 'json'
          ? new Blob([JSON.stringify((await res.json()).events, null, 2)], { type: 'application/json' })
          : await res.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 0);
      message(w().downloaded(name));
    } catch {
      message(t('network'));
    }
  }

  async function changePassword(event) {
    event.preventDefault();
    const body = { current_password: $('current-password').value, new_password: $('new-password').value };
    const res = await call('POST', '/api/v1/auth/password', body, withToken());
    $('password-message').textContent = res.status === 200 ? w().passwordChanged : (res.json.error ?? `HTTP ${res.status}`);
    if (res.status === 200) $('password-form').reset();
  }

  /** `/#join=<token>`: the join page instead of the portal; the token stays in memory only. */
  function openJoin() {
    const match = /^#join=([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (!match) return false;
    joinToken = match[1];
    for (const id of ['auth', 'intro', 'account']) $(id).hidden = true;
    $('join').hidden = false;
    $('join-error').textContent = '';
    $('join-password').focus();
    return true;
  }

  async function join(event) {
    event.preventDefault();
    const res = await call('POST', '/api/v1/team/join', { token: joinToken, password: $('join-password').value });
    if (res.status !== 201) {
      $('join-error').textContent = res.json.error ?? `HTTP ${res.status}`;
      return;
    }
    // The link has done its work: out of the address bar and the history entry.
    joinToken = undefined;
    history.replaceState(null, '', location.pathname + location.search);
    state.token = res.json.token;
    sessionStorage.setItem('token', state.token);
    $('join-form').reset();
    $('join').hidden = true;
    await showAccount();
    say(w().joined(state.team?.email ?? ''));
  }

  /** Signed out: nothing of the team stays on the page. */
  function hide() {
    $('whoami').textContent = '';
    $('invite-result').hidden = true;
    $('invite-url').textContent = '';
    $('members').tBodies[0].replaceChildren();
    $('audit-events').tBodies[0].replaceChildren();
    message('');
    $('password-message').textContent = '';
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('invite-form').addEventListener('submit', invite);
    $('copy-invite').addEventListener('click', async () => {
      await navigator.clipboard?.writeText($('invite-url').textContent).catch(() => {});
      message(w().copied);
    });
    $('audit-form').addEventListener('submit', showAudit);
    $('audit-csv').addEventListener('click', () => download('csv'));
    $('audit-json').addEventListener('click', () => download('json'));
    $('password-form').addEventListener('submit', changePassword);
    $('join-form').addEventListener('submit', join);
    window.addEventListener('hashchange', () => {
      if (openJoin() || $('join').hidden) return;
      // Left the join page by another link (log in, …): back to the portal.
      joinToken = undefined;
      $('join').hidden = true;
      if (state.token) void showAccount();
      else for (const id of ['auth', 'intro']) $(id).hidden = false;
    });
  });

  return { label, refresh, hide, openJoin, can };
})();
