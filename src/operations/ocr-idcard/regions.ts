/**
 * Korea's administrative divisions (행정안전부 행정표준코드, public data): the 17 시·도 with
 * their former names still printed on older cards, and each one's 시·군·구 (with the 일반구
 * of the large cities). Used to correct a misread division name, never to invent one.
 */
const DIVISIONS: Record<string, string> = {
  서울특별시:
    '종로구 중구 용산구 성동구 광진구 동대문구 중랑구 성북구 강북구 도봉구 노원구 은평구 서대문구 마포구 양천구 강서구 구로구 금천구 영등포구 동작구 관악구 서초구 강남구 송파구 강동구',
  부산광역시: '중구 서구 동구 영도구 부산진구 동래구 남구 북구 해운대구 사하구 금정구 강서구 연제구 수영구 사상구 기장군',
  대구광역시: '중구 동구 서구 남구 북구 수성구 달서구 달성군 군위군',
  인천광역시: '중구 동구 미추홀구 연수구 남동구 부평구 계양구 서구 강화군 옹진군',
  광주광역시: '동구 서구 남구 북구 광산구',
  대전광역시: '동구 중구 서구 유성구 대덕구',
  울산광역시: '중구 남구 동구 북구 울주군',
  세종특별자치시: '',
  경기도:
    '수원시 장안구 권선구 팔달구 영통구 성남시 수정구 중원구 분당구 의정부시 안양시 만안구 동안구 부천시 원미구 소사구 오정구 광명시 평택시 동두천시 안산시 상록구 단원구 고양시 덕양구 일산동구 일산서구 과천시 구리시 남양주시 오산시 시흥시 군포시 의왕시 하남시 용인시 처인구 기흥구 수지구 파주시 이천시 안성시 김포시 화성시 광주시 양주시 포천시 여주시 연천군 가평군 양평군',
  강원특별자치도:
    '춘천시 원주시 강릉시 동해시 태백시 속초시 삼척시 홍천군 횡성군 영월군 평창군 정선군 철원군 화천군 양구군 인제군 고성군 양양군',
  충청북도: '청주시 상당구 서원구 흥덕구 청원구 충주시 제천시 보은군 옥천군 영동군 증평군 진천군 괴산군 음성군 단양군',
  충청남도: '천안시 동남구 서북구 공주시 보령시 아산시 서산시 논산시 계룡시 당진시 금산군 부여군 서천군 청양군 홍성군 예산군 태안군',
  전북특별자치도: '전주시 완산구 덕진구 군산시 익산시 정읍시 남원시 김제시 완주군 진안군 무주군 장수군 임실군 순창군 고창군 부안군',
  전라남도:
    '목포시 여수시 순천시 나주시 광양시 담양군 곡성군 구례군 고흥군 보성군 화순군 장흥군 강진군 해남군 영암군 무안군 함평군 영광군 장성군 완도군 진도군 신안군',
  경상북도:
    '포항시 남구 북구 경주시 김천시 안동시 구미시 영주시 영천시 상주시 문경시 경산시 의성군 청송군 영양군 영덕군 청도군 고령군 성주군 칠곡군 예천군 봉화군 울진군 울릉군',
  경상남도:
    '창원시 의창구 성산구 마산합포구 마산회원구 진해구 진주시 통영시 사천시 김해시 밀양시 거제시 양산시 의령군 함안군 창녕군 고성군 남해군 하동군 산청군 함양군 거창군 합천군',
  제주특별자치도: '제주시 서귀포시',
};

/** Names still printed on cards issued before a 시·도 was renamed. */
const FORMER_NAMES: Record<string, string> = { 강원도: '강원특별자치도', 전라북도: '전북특별자치도' };

export const SIDO_NAMES: readonly string[] = [...Object.keys(DIVISIONS), ...Object.keys(FORMER_NAMES)];
export const SIGUNGU_NAMES: readonly string[] = [...new Set(Object.values(DIVISIONS).flatMap((list) => list.split(' ').filter(Boolean)))];

/** The 시·군·구 of one 시·도 (by its current or former name). */
export function sigunguOf(sido: string): readonly string[] {
  const list = DIVISIONS[FORMER_NAMES[sido] ?? sido];
  return list ? list.split(' ').filter(Boolean) : [];
}

/**
 * How different two syllables look to OCR: the share of their jamo (initial, vowel, final)
 * that differ, so 낳/남 (one final) is closer than 낳/북. Other characters: 0 or 1.
 */
export function syllableCost(a: string, b: string): number {
  if (a === b) return 0;
  const x = a.charCodeAt(0) - 0xac00;
  const y = b.charCodeAt(0) - 0xac00;
  if (x < 0 || y < 0 || x > 11171 || y > 11171) return 1;
  // Initial, vowel and final compared without allocating: this runs for every label and vocabulary look-up.
  const initial = Math.floor(x / 588) !== Math.floor(y / 588) ? 1 : 0;
  const vowel = Math.floor((x % 588) / 28) !== Math.floor((y % 588) / 28) ? 1 : 0;
  const final = x % 28 !== y % 28 ? 1 : 0;
  return (initial + vowel + final) / 3;
}

/** Edit distance with {@link syllableCost} substitutions; small strings only. */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number;
      row[j] = Math.min(current + 1, (row[j - 1] as number) + 1, previous + syllableCost(a[i - 1] as string, b[j - 1] as string));
      previous = current;
    }
  }
  return row[b.length] as number;
}

/**
 * The one known name a misread token stands for: about one syllable off for names of three
 * or more syllables, two for the long 특별자치도/광역시 names, and only when no other name is
 * as close (동구/중구/서구 are never guessed). `preferred` (the 시·군·구 of the 시·도 read)
 * only settles a tie. Exact names come back unchanged.
 */
export function closestName(
  token: string,
  names: readonly string[],
  preferred: readonly string[] = [],
  maxCost?: number,
): string | undefined {
  if (names.includes(token)) return token;
  if (token.length < 3) return undefined;
  const allowed = maxCost ?? (token.length >= 5 ? 2 : 1);
  const scored = names
    .filter((name) => Math.abs(name.length - token.length) <= allowed)
    .map((name) => ({ name, d: distance(token, name) }))
    .filter((candidate) => candidate.d <= allowed)
    .sort((a, b) => a.d - b.d);
  const best = scored[0];
  if (!best) return undefined;
  const tied = scored.filter((candidate) => candidate.d - best.d < 0.01);
  if (tied.length === 1) return best.name;
  const local = tied.filter((candidate) => preferred.includes(candidate.name));
  return local.length === 1 ? local[0]?.name : undefined;
}
